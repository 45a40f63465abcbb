//! Standard base64 decoding (RFC 4648), for HTTP Basic credentials and MIME parts of
//! imported emails. Whitespace is skipped (MIME wraps lines); padding is optional.

/// The decoded bytes, or `None` if `text` holds a character outside the alphabet or
/// ends in the middle of a byte.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            c if c.is_ascii_whitespace() => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // Leftover bits must be padding (fewer than a byte, all zero in valid input).
    (bits < 6).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_padded_unpadded_and_wrapped_text() {
        assert_eq!(decode("YWRtaW46c2VjcmV0").unwrap(), b"admin:secret");
        assert_eq!(decode("Og==").unwrap(), b":");
        assert_eq!(decode("Og").unwrap(), b":");
        assert_eq!(decode("SGVs\r\nbG8=").unwrap(), b"Hello");
        assert_eq!(decode("").unwrap(), b"");
        assert!(decode("a*b").is_none());
        assert!(decode("Q").is_none(), "six bits are not a byte");
    }
}

//! Outgoing HTTP: every `reqwest` client in Cosmo starts from [`client_builder`] (or
//! [`client`]), so TLS always has its crypto provider.
//!
//! reqwest is built with `rustls-no-provider`, and rustls with ring, the provider neo4rs
//! already builds: reqwest's own default, aws-lc-rs, is a C/cmake build that cost minutes of
//! a cold release build. The price is that building a reqwest client panics until a
//! process-wide provider is installed (plain-HTTP clients too: the TLS config is made up
//! front). [`install_tls`] installs ring once per process; [`client_builder`] calls it, and so
//! must any path that lets a library build a client of its own. `clippy.toml` rejects
//! `reqwest::Client::new`/`builder`, `reqwest::get` and `async_openai::Client::new`/`with_config`
//! elsewhere.

use std::sync::Once;

/// Installs ring as this process's rustls crypto provider; later calls do nothing.
pub fn install_tls() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Err only when a provider is already installed, which is all we need.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A reqwest client builder whose TLS has its provider; the one way to make a client.
#[allow(clippy::disallowed_methods)]
pub fn client_builder() -> reqwest::ClientBuilder {
    install_tls();
    reqwest::Client::builder()
}

/// A client with reqwest's defaults, like `reqwest::Client::new()`.
///
/// # Panics
/// As `reqwest::Client::new()` does: when the system's TLS roots cannot be loaded.
pub fn client() -> reqwest::Client {
    client_builder()
        .build()
        .expect("an HTTP client with reqwest's defaults builds")
}

#[cfg(test)]
mod tests {
    #[test]
    fn clients_build_with_the_ring_provider() {
        super::client();
        super::client_builder().build().unwrap();
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}

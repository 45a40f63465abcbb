use super::best_first;

/// The best `limit` by score, ties by key, whatever the order given: as sorting the
/// whole list would keep them, also when many share the score at the cut.
#[test]
fn best_first_keeps_what_a_full_sort_keeps() {
    let mut seed = 11u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for round in 0..200 {
        let len = next(300) as usize;
        let keys: Vec<String> = (0..len)
            .map(|i| format!("k{:04}", (i * 7919) % 1000))
            .collect();
        // Few distinct scores: long runs of ties.
        let found: Vec<(f32, usize)> = (0..len).map(|i| (next(5) as f32 / 4.0, i)).collect();
        let limit = next(60) as usize;
        let mut want = found.clone();
        want.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| keys[a.1].cmp(&keys[b.1])));
        want.truncate(limit);
        let mut got = found;
        best_first(&mut got, limit, |i| keys[i].as_str());
        assert_eq!(got, want, "round {round}, {len} found, limit {limit}");
    }
}

use super::codes::prefilter_pool;
use super::*;

#[test]
fn quantised_cosines_are_close_to_exact_ones() {
    let a: Vec<f32> = (0..384)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0)
        .collect();
    let b: Vec<f32> = (0..384)
        .map(|i| ((i * 53 % 97) as f32 - 40.0) / 3.0)
        .collect();
    let exact = {
        let d: f64 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| f64::from(*x) * f64::from(*y))
            .sum();
        let n = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        d / (n(&a) * n(&b))
    };
    let (qa, sa) = quantise(&a);
    let (qb, sb) = quantise(&b);
    let approx = f64::from(PlainDot.dot(&qa, &qb) as f32 * sa * sb);
    assert!((approx - exact).abs() < 0.01, "{approx} vs {exact}");
    let (zero, scale) = quantise(&[0.0; 8]);
    assert_eq!((zero, scale), (vec![0; 8], 0.0));
}

/// The AVX2 products equal the plain ones, at the extreme codes (±127 everywhere:
/// the largest sums of neighbouring products) and for lengths not a multiple of 32.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_dot_products_equal_plain_ones() {
    let Some(simd) = pulp::x86::V3::try_new() else {
        eprintln!("this CPU has no AVX2: nothing to compare");
        return;
    };
    let mut seed = 7u64;
    let mut code = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (((seed >> 33) % 255) as i16 - 127) as i8
    };
    for len in [0, 1, 31, 32, 33, 384, 385, 1000] {
        let a: Vec<i8> = (0..len).map(|_| code()).collect();
        let b: Vec<i8> = (0..len).map(|_| code()).collect();
        assert_eq!(
            Avx2Dot(simd).dot(&a, &b),
            PlainDot.dot(&a, &b),
            "length {len}"
        );
        for (x, y) in [(127, 127), (-127, -127), (127, -127), (-127, 127)] {
            let (a, b) = (vec![x; len], vec![y; len]);
            let want = i32::from(x) * i32::from(y) * len as i32;
            assert_eq!(Avx2Dot(simd).dot(&a, &b), want, "{x}·{y}, length {len}");
            assert_eq!(PlainDot.dot(&a, &b), want);
        }
    }
}

/// Among many memories (the sign prefilter at work) the shortlist still holds the
/// exact top 50: sentences of mixed words embedded by the offline model, questions
/// of other words, the shortlist of a search of 50 against an exact f32 scan.
#[test]
fn the_sign_prefilter_keeps_the_exact_top_50() {
    const WORDS: &[&str] = &[
        "budget",
        "hiking",
        "deadline",
        "dentist",
        "garden",
        "piano",
        "invoice",
        "flight",
        "recipe",
        "server",
        "migration",
        "birthday",
        "contract",
        "vacation",
        "lease",
        "painting",
        "marathon",
        "tax",
        "wedding",
        "launch",
        "sprint",
        "grant",
        "camera",
        "bicycle",
        "therapy",
        "mortgage",
        "novel",
        "concert",
        "kitchen",
        "election",
        "puppy",
        "insurance",
        "database",
        "podcast",
        "harvest",
        "museum",
        "salary",
        "allergy",
        "telescope",
        "festival",
    ];
    let mut seed = 3u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut sentence = |len: usize| {
        (0..len)
            .map(|_| WORDS[next(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let texts: Vec<String> = (0..6000).map(|_| sentence(6)).collect();
    let vectors: Vec<Vec<f32>> = texts
        .iter()
        .map(|t| cosmo_models::offline::embed::embed(t, 384))
        .collect();
    let mut part = Partition::default();
    for (i, v) in vectors.iter().enumerate() {
        let (codes, scale) = quantise(v);
        let entry = Entry {
            visibility: 0,
            at: 0,
            dims: v.len(),
            signs: signs(&codes),
            codes,
            scales: vec![scale],
        };
        part.put(format!("m{i:05}"), Some(entry));
    }
    let filter = Filter {
        visibility: 0,
        since: i64::MIN,
        until: i64::MAX,
    };
    assert!(prefilter_pool(shortlist(50), part.index.len()) < part.index.len());
    let (mut kept, mut wanted) = (0, 0);
    for _ in 0..40 {
        let query = cosmo_models::offline::embed::embed(&sentence(3), 384);
        let listed = part.shortlist(&filter, &query, shortlist(50));
        let mut exact: Vec<(f64, usize)> = vectors
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let dot: f64 = v.iter().zip(&query).map(|(a, b)| f64::from(a * b)).sum();
                (dot, i)
            })
            .collect();
        exact.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, i) in &exact[..50] {
            wanted += 1;
            kept += usize::from(listed.contains(&format!("m{i:05}")));
        }
    }
    let recall = kept as f64 / wanted as f64;
    assert!(recall >= 0.98, "recall of the exact top 50: {recall}");
}

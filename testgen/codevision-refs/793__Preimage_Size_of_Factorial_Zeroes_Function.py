def preimageSizeFZF(k: int) -> int:
    # f(x) = number of trailing zeroes of x! is non-decreasing and each value it
    # takes is taken by exactly 5 consecutive x; so the answer is 5 or 0.
    def zeros(x):
        z = 0
        while x:
            x //= 5
            z += x
        return z

    # smallest x with zeros(x) >= k
    def first_at_least(t):
        lo, hi = 0, 5 * t + 5
        while lo < hi:
            mid = (lo + hi) // 2
            if zeros(mid) >= t:
                hi = mid
            else:
                lo = mid + 1
        return lo

    return first_at_least(k + 1) - first_at_least(k)

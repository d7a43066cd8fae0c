def valid(numbers, threshold):
    """No pair lies within float rounding of the threshold (checked on the
    sorted numbers, so that large inputs are not quadratic here too)."""
    import bisect
    s = sorted(numbers)
    for i, a in enumerate(s):
        j = bisect.bisect_left(s, a + threshold - 2e-6, i + 1)
        while j < len(s) and s[j] - a <= threshold + 2e-6:
            if abs(abs(a - s[j]) - threshold) <= 1e-6:
                return False
            j += 1
    return True

def valid(numbers, threshold):
    """No pair lies within float rounding of the threshold, unless it lies
    exactly on it with every value on a grid of 1/1024 (then every sum and
    difference is exact, so the pair is at the threshold however a program
    computes the distance, and only `<` against `<=` decides). Checked on
    the sorted numbers, so that large inputs are not quadratic here too."""
    import bisect

    def on_grid(x):
        return abs(x) < 2 ** 40 and (x * 1024).is_integer()

    s = sorted(numbers)
    for i, a in enumerate(s):
        j = bisect.bisect_left(s, a + threshold - 2e-6, i + 1)
        while j < len(s) and s[j] - a <= threshold + 2e-6:
            if abs(abs(a - s[j]) - threshold) <= 1e-6:
                exact = on_grid(a) and on_grid(s[j]) and on_grid(threshold) and abs(a - s[j]) == threshold
                if not exact:
                    return False
            j += 1
    return True

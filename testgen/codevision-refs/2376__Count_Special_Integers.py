def countSpecialNumbers(n: int) -> int:
    # Count integers in [1, n] whose decimal digits are pairwise distinct.
    if n < 1:
        return 0
    digits = list(map(int, str(n)))
    L = len(digits)

    def perm(avail, take):
        r = 1
        for i in range(take):
            r *= avail - i
        return r

    total = 0
    # numbers with fewer digits than n
    for length in range(1, L):
        total += 9 * perm(9, length - 1)
    # numbers with exactly L digits and <= n
    used = set()
    for i, d in enumerate(digits):
        start = 1 if i == 0 else 0
        for x in range(start, d):
            if x not in used:
                total += perm(10 - (i + 1), L - i - 1)
        if d in used:
            break
        used.add(d)
    else:
        total += 1  # n itself
    return total

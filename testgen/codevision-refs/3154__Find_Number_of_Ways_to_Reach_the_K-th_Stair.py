def waysToReachStair(target: int) -> int:
    # After j up-jumps Alice is at 1 + (2^j - 1) - d = 2^j - d, where d is the
    # number of down-moves; down-moves are never consecutive and the first
    # action may be a down, so they are placed in the j + 1 gaps around the up
    # jumps, at most one per gap: C(j + 1, d) ways with 0 <= d <= j + 1.
    k = target
    total = 0
    j = 0
    while (1 << j) - (j + 1) <= k:
        d = (1 << j) - k
        if 0 <= d <= j + 1:
            # C(j + 1, d)
            c = 1
            for i in range(d):
                c = c * (j + 1 - i) // (i + 1)
            total += c
        j += 1
    return total

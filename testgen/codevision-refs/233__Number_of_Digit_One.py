def countDigitOne(n: int) -> int:
    # For each decimal position p (1, 10, 100, ...), count how many numbers in
    # [0, n] have a 1 at that position.
    if n <= 0:
        return 0
    total = 0
    p = 1
    while p <= n:
        high = n // (p * 10)
        cur = (n // p) % 10
        low = n % p
        total += high * p
        if cur > 1:
            total += p
        elif cur == 1:
            total += low + 1
        p *= 10
    return total

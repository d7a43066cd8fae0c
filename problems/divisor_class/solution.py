def divisor_class(n: int) -> str:
    total = 0
    d = 1
    while d * d <= n:
        if n % d == 0:
            total += d
            partner = n // d
            if partner != d:
                total += partner
        d += 1
    total -= n
    if total == n:
        return "perfect"
    if total > n:
        return "abundant"
    return "deficient"

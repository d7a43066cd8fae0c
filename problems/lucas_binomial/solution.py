def lucas_binomial(n: int, k: int, p: int) -> int:
    def small_binomial(a, b):
        num, den = 1, 1
        for i in range(b):
            num = num * (a - i) % p
            den = den * (i + 1) % p
        return num * pow(den, p - 2, p) % p

    if k < 0 or k > n:
        return 0
    result = 1
    while n > 0 or k > 0:
        a, b = n % p, k % p
        if b > a:
            return 0
        result = result * small_binomial(a, b) % p
        n, k = n // p, k // p
    return result


def valid(n, k, p):
    return n >= 0 and p >= 2 and all(p % d for d in range(2, int(p ** 0.5) + 1))

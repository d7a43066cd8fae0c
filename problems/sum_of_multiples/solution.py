from math import gcd


def sum_of_multiples(limit: int, a: int, b: int) -> int:
    def multiples_sum(k):
        m = (limit - 1) // k
        return k * m * (m + 1) // 2

    both = a * b // gcd(a, b)
    total = multiples_sum(a) + multiples_sum(b) - multiples_sum(both)
    return total

def factorial_zeros(n: int) -> int:
    zeros = 0
    power = 5
    while power <= n:
        zeros += n // power
        power *= 5
    return zeros

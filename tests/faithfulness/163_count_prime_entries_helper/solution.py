def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def count_prime_entries(nums):
    count = 0
    for x in nums:
        if is_prime(x):
            count += 1
    return count

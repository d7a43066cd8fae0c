def sum_even_squares(nums):
    total = 0
    for x in nums:
        if x % 2 == 0:
            total += x * x
    return total

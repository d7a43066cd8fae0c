def missing_number(nums):
    n = len(nums)
    total = n * (n + 1) // 2
    for x in nums:
        total -= x
    return total

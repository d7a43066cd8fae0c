def special_filter(nums):
    count = 0
    for num in nums:
        if num > 10:
            digits = str(num)
            if int(digits[0]) % 2 == 1 and int(digits[-1]) % 2 == 1:
                count += 1
    return count

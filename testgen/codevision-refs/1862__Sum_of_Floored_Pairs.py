def sumOfFlooredPairs(nums):
    MOD = 10 ** 9 + 7
    if not nums:
        return 0
    if min(nums) < 1:
        raise ValueError('nums[i] must be >= 1')
    n = len(nums)
    m = max(nums)
    cnt = [0] * (m + 1)
    for x in nums:
        cnt[x] += 1
    # below[v] = number of elements strictly smaller than v
    below = [0] * (m + 1)
    run = 0
    for v in range(1, m + 1):
        run += cnt[v - 1]
        below[v] = run
    total = 0
    # floor(x / d) = number of q >= 1 with q*d <= x, so for a divisor d the sum
    # over all x is sum_{q >= 1} #{x >= q*d} = sum over multiples v of d of
    # (n - below[v]).
    for d in range(1, m + 1):
        c = cnt[d]
        if not c:
            continue
        mult = below[d::d]
        total += c * (len(mult) * n - sum(mult))
    return total % MOD

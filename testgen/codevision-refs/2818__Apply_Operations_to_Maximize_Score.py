from typing import List


def maximumScore(nums: List[int], k: int) -> int:
    MOD = 10 ** 9 + 7
    n = len(nums)
    if min(nums) < 1:
        raise ValueError('nums[i] must be >= 1')
    m = max(nums)
    # number of distinct prime factors
    ps = [0] * (m + 1)
    for p in range(2, m + 1):
        if ps[p] == 0:
            for q in range(p, m + 1, p):
                ps[q] += 1
    score = [ps[x] for x in nums]
    # nums[i] is the chosen element of [l, r] iff every element in l..i-1 has a
    # smaller prime score and every element in i+1..r has a score <= its own.
    left = [-1] * n   # previous index with score >= score[i]
    st = []
    for i in range(n):
        while st and score[st[-1]] < score[i]:
            st.pop()
        left[i] = st[-1] if st else -1
        st.append(i)
    right = [n] * n   # next index with score > score[i]
    st = []
    for i in range(n - 1, -1, -1):
        while st and score[st[-1]] <= score[i]:
            st.pop()
        right[i] = st[-1] if st else n
        st.append(i)
    ans = 1
    for i in sorted(range(n), key=lambda i: -nums[i]):
        if k <= 0:
            break
        c = min(k, (i - left[i]) * (right[i] - i))
        ans = ans * pow(nums[i], c, MOD) % MOD
        k -= c
    return ans

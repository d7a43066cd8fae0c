def top_k_frequent(nums, k):
    counts = {}
    for x in nums:
        if x in counts:
            counts[x] += 1
        else:
            counts[x] = 1
    items = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
    return [key for key, _ in items[:k]]

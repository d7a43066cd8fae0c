def valid(arr, k):
    """No two-digit negative number among the first k elements."""
    return not any(-99 <= x <= -10 for x in arr[:k])

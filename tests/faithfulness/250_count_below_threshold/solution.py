def count_below(values, limit):
    count = 0
    i = len(values) - 1
    while i >= 0:
        if values[i] < limit:
            count += 1
        i -= 1
    return count

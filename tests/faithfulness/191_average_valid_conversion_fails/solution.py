def average_valid(values):
    total = 0.0
    count = 0
    for v in values:
        try:
            x = float(v)
        except (TypeError, ValueError):
            continue
        total += x
        count += 1
    if count == 0:
        return 0.0
    return total / count

def last_index_of_max(values):
    best = 0
    for i, v in enumerate(values):
        if v >= values[best]:
            best = i
    return best

def parse_ints(tokens):
    result = []
    for t in tokens:
        try:
            result.append(int(t))
        except ValueError:
            continue
    return result

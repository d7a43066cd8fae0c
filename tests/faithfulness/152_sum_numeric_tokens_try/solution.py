def sum_numbers(text):
    total = 0
    for token in text.split():
        try:
            total += int(token)
        except ValueError:
            continue
    return total

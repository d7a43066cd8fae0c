def parse_scores(entries):
    """Return the scores between 0 and 100 found in entries, and how many entries were bad."""
    scores = []
    bad = 0
    for entry in entries:
        try:
            value = int(entry.strip())
        except ValueError:
            bad += 1
            continue
        if 0 <= value <= 100:
            scores.append(value)
        else:
            bad += 1
    return scores, bad

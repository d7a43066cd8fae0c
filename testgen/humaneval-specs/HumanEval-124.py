def valid(date):
    # HumanEval's canonical solution rejects every day over 29: its
    # `month == 2 and day < 1 or day > 29` reads `(...) or day > 29`. A date on
    # the 30th or 31st would fail solutions that follow the docstring, so such
    # dates are left out (the docstring's other rules are all tested).
    parts = date.strip().split("-")
    return not (len(parts) == 3 and parts[1].isdigit() and int(parts[1]) in (30, 31))

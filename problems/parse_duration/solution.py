def parse_duration(s: str) -> int:
    units = "dhms"
    unit_seconds = [86400, 3600, 60, 1]
    total = 0
    number = ""
    next_unit = 0
    for ch in s:
        if "0" <= ch <= "9":
            number += ch
        elif ch in units and number != "":
            k = units.index(ch)
            if k < next_unit:
                return -1
            total += int(number) * unit_seconds[k]
            number = ""
            next_unit = k + 1
        else:
            return -1
    if number != "" or next_unit == 0:
        return -1
    return total

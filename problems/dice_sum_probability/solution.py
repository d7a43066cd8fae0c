def dice_sum_probability(dice: int, sides: int, target: int) -> float:
    if target < dice or target > dice * sides:
        return 0.0
    ways = [1] + [0] * target
    for die in range(dice):
        new_ways = [0] * (target + 1)
        window = 0
        for s in range(1, target + 1):
            window += ways[s - 1]
            if s - 1 - sides >= 0:
                window -= ways[s - 1 - sides]
            new_ways[s] = window
        ways = new_ways
    return ways[target] / sides ** dice

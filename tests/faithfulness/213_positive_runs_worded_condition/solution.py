def count_positive_runs(nums):
    runs = 0
    inside = False
    for x in nums:
        if x > 0:
            if not inside:
                runs += 1
            inside = True
        else:
            inside = False
    return runs

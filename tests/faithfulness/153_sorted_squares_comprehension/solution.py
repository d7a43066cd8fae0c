def sorted_squares(nums):
    squares = [x ** 2 for x in nums]
    squares.sort()
    return squares

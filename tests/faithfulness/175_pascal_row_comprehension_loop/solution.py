def get_row(row_index):
    row = [1]
    for _ in range(row_index):
        row = [1] + [row[j] + row[j + 1] for j in range(len(row) - 1)] + [1]
    return row

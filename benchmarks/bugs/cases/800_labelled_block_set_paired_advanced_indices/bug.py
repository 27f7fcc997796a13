import torch


class LabelledMatrix:
    def __init__(self, row_labels, col_labels, data=None):
        self.rows = {name: i for i, name in enumerate(row_labels)}
        self.cols = {name: i for i, name in enumerate(col_labels)}
        self.data = torch.zeros(len(row_labels), len(col_labels)) if data is None else data

    def _lookup(self, table, names):
        if isinstance(names, str):
            return table[names]
        return torch.tensor([table[n] for n in names])

    def set(self, rows, cols, value):
        r = self._lookup(self.rows, rows)
        c = self._lookup(self.cols, cols)
        self.data[r, c] = value
        return self

    def normalize(self):
        self.data = self.data / self.data.sum(dim=0, keepdim=True).clamp(min=1e-12)
        return self


if __name__ == "__main__":
    likelihood = LabelledMatrix(["red", "green", "blue"], ["s0", "s1", "s2", "s3"], torch.ones(3, 4))
    likelihood.set(["red", "green"], ["s0", "s1", "s2"], 7.0)
    print(likelihood.normalize().data)

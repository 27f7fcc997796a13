import torch


class Feature(object):
    """
    Base class for the per-column feature models of a tabular dataset.

    :param str name: The name of the column.
    """
    def __init__(self, name):
        self.name = name


class Real(Feature):
    @torch.no_grad()
    def init(self, data):
        """
        :param torch.Tensor data: A minibatch of column data of shape ``(batch_size,)``.
        :returns: ``(loc, scale)``, two scalars.
        """
        return data.mean(), data.std()


class Discrete(Feature):
    """
    A categorical column taking values in ``{0, ..., cardinality - 1}``.

    :param str name: The name of the column.
    :param int cardinality: The number of categories.
    """
    def __init__(self, name, cardinality):
        super().__init__(name)
        self.cardinality = cardinality

    @torch.no_grad()
    def init(self, data):
        """
        Heuristically initializes the shared parameters from a minibatch of data.

        :param torch.Tensor data: A minibatch of column data of shape ``(batch_size,)``.
        :returns: ``(loc, scale)``, each of shape ``(cardinality,)``: smoothed
            log-frequencies of the categories and their prior scale.
        """
        assert data.dim() == 1
        counts = torch.zeros(self.cardinality, device=data.device)
        counts = counts.scatter_add(0, data, torch.ones(data.shape, device=data.device))
        loc = (counts + 0.5).log()
        loc = loc - loc.logsumexp(-1, True)
        scale = loc.new_full(loc.shape, 2.)
        return loc, scale


def load_table(num_rows):
    """Returns the table as one float tensor of shape ``(num_rows, 3)``, as read from a CSV."""
    age = 20 + 50 * torch.rand(num_rows)
    color = torch.randint(0, 4, (num_rows,)).float()
    size = torch.randint(0, 3, (num_rows,)).float()
    return torch.stack([age, color, size], dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    features = [Real("age"), Discrete("color", 4), Discrete("size", 3)]
    table = load_table(50)
    data = [table[:, i] for i in range(table.size(1))]
    params = [f.init(col) for f, col in zip(features, data)]
    for f, col, (loc, scale) in zip(features, data, params):
        if isinstance(f, Discrete):
            counts = [0.0] * f.cardinality
            for value in col.tolist():
                counts[int(value)] += 1.0
            ref = torch.tensor(counts).add(0.5).log()
            print(f.name, "loc:", loc.tolist(), "loop reference:", (ref - ref.logsumexp(-1, True)).tolist())

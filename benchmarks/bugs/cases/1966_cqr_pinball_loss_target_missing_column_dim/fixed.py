import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class QuantileLoss(nn.Module):
    """
    Pinball loss function (Romano et al., 2019).
    Paper: https://proceedings.neurips.cc/paper_files/paper/2019/file/5103c3584b063c431bd1268e9b5e76fb-Paper.pdf

    :param quantiles: a list of quantiles, such as :math: [alpha/2, 1-alpha/2].
    """

    def __init__(self, quantiles):
        super().__init__()
        self.quantiles = quantiles

    def forward(self, preds, target):
        """
        Compute the pinball loss.

        :param preds: the alpha/2 and 1-alpha/2 predictions of the model. The shape is batch x 2.
        :param target: the truth values. The shape is batch x 1.
        """
        assert not target.requires_grad
        assert preds.size(0) == target.size(0), "the batch size of preds must be equal to the batch size of target."
        losses = preds.new_zeros(len(self.quantiles))

        for i, q in enumerate(self.quantiles):
            errors = target - preds[:, i:i + 1]
            losses[i] = torch.sum(torch.max((q - 1) * errors, q * errors).squeeze(1))
        loss = torch.mean(losses)
        return loss


def build_regression_model(in_shape, hidden_size, out_shape):
    """MLP mapping (batch, in_shape) features to (batch, out_shape) quantile predictions."""
    return nn.Sequential(
        nn.Linear(in_shape, hidden_size), nn.ReLU(),
        nn.Linear(hidden_size, hidden_size), nn.ReLU(),
        nn.Linear(hidden_size, out_shape),
    )


def build_dataset(n, d, generator):
    """Synthetic tabular regression data: X is (n, d), y is (n,)."""
    X = torch.randn(n, d, generator=generator)
    w = torch.randn(d, generator=generator)
    y = X @ w + 0.5 * torch.randn(n, generator=generator) * (1 + X[:, 0].abs())
    return X, y


def train(model, train_loader, criterion, optimizer, epochs):
    model.train()
    for _ in range(epochs):
        for X_batch, y_batch in train_loader:
            outputs = model(X_batch)
            loss = criterion(outputs, y_batch.unsqueeze(dim=1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    alpha = 0.1
    quantiles = [alpha / 2, 1 - alpha / 2]

    X, y = build_dataset(512, 5, g)
    train_loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=False)

    model = build_regression_model(5, 32, 2)
    criterion = QuantileLoss(quantiles)

    # loss of the first batch before training: sum over samples, mean over the two quantiles
    X_batch, y_batch = next(iter(train_loader))
    with torch.no_grad():
        outputs = model(X_batch)
        first_loss = criterion(outputs, y_batch.unsqueeze(dim=1)).item()
        per_sample = [
            sum(max((q - 1) * (y_batch[b] - outputs[b, i]).item(), q * (y_batch[b] - outputs[b, i]).item())
                for b in range(64))
            for i, q in enumerate(quantiles)
        ]
    assert abs(first_loss - sum(per_sample) / 2) < 1e-3, (first_loss, sum(per_sample) / 2)

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train(model, train_loader, criterion, optimizer, epochs=2)
    print("ok")

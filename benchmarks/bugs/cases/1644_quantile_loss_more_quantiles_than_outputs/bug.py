import torch
import torch.nn as nn


class QuantileLoss:
    """
    Quantile (pinball) loss for probabilistic forecasts.

    Args:
        quantiles (List[float]): quantiles the network predicts, in the order of its
            output channels. Defaults to [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98].
    """

    def __init__(self, quantiles=None):
        self.quantiles = quantiles or [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98]

    def loss(self, y_pred, target):
        """
        Args:
            y_pred (torch.Tensor): network output of shape (batch, prediction_length, n_quantiles).
            target (torch.Tensor): actuals of shape (batch, prediction_length).

        Returns:
            torch.Tensor: per-quantile losses of shape (batch, prediction_length, n_quantiles).
        """
        losses = []
        for i, q in enumerate(self.quantiles):
            errors = target - y_pred[..., i]
            losses.append(torch.max((q - 1) * errors, q * errors).unsqueeze(-1))
        return torch.cat(losses, dim=2)

    def to_prediction(self, y_pred):
        """
        Args:
            y_pred (torch.Tensor): (batch, prediction_length, n_quantiles).

        Returns:
            torch.Tensor: median forecast of shape (batch, prediction_length).
        """
        return y_pred[..., self.quantiles.index(0.5)]


class SimpleForecaster(nn.Module):
    """
    Encoder-decoder forecaster with a quantile output head.

    Args:
        hidden_size (int): LSTM width.
        output_size (int): number of values predicted per time step.
        prediction_length (int): forecast horizon.
    """

    def __init__(self, hidden_size, output_size, prediction_length, loss):
        super().__init__()
        self.encoder = nn.LSTM(1, hidden_size, batch_first=True)
        self.decoder = nn.Linear(hidden_size, prediction_length * output_size)
        self.prediction_length = prediction_length
        self.output_size = output_size
        self.loss = loss

    def forward(self, x):
        """
        Args:
            x (torch.Tensor): encoder targets of shape (batch, encoder_length).

        Returns:
            torch.Tensor: (batch, prediction_length, output_size).
        """
        _, (h, _) = self.encoder(x.unsqueeze(-1))
        out = self.decoder(h[-1])
        return out.view(x.size(0), self.prediction_length, self.output_size)

    def training_step(self, x, y):
        y_pred = self(x)
        return self.loss.loss(y_pred, y).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    hparams = dict(hidden_size=16, output_size=5, prediction_length=6)  # 7 quantiles by default
    model = SimpleForecaster(**hparams, loss=QuantileLoss())
    series = torch.sin(torch.arange(0, 40, dtype=torch.float32) / 3)
    x = torch.stack([series[i : i + 24] for i in range(8)])
    y = torch.stack([series[i + 24 : i + 30] for i in range(8)])
    loss = model.training_step(x, y)
    print("loss", loss.item())

import torch
import torch.nn as nn


def last_observed(values, lengths):
    """
    Reads the last observed time step of every series in a right-padded batch.

    Args:
        values (`torch.FloatTensor` of shape `(batch_size, max_steps, num_channels)`):
            Observed values, padded with zeros after each series' length.
        lengths (`torch.LongTensor` of shape `(batch_size,)`):
            Number of observed steps of each series.

    Returns:
        `torch.FloatTensor` of shape `(batch_size, num_channels)`: the values at step `lengths - 1`.
    """
    last_index = (lengths - 1).view(-1, 1, 1).expand(-1, 1, values.size(-1))
    return values.gather(1, last_index).squeeze(1)


class ResidualForecastHead(nn.Module):
    """Predicts the next step as the last observation plus a learned increment."""

    def __init__(self, num_channels, hidden_size):
        super().__init__()
        self.encoder = nn.GRU(num_channels, hidden_size, batch_first=True)
        self.increment = nn.Linear(hidden_size, num_channels)

    def forward(self, values, lengths):
        """
        Args:
            values (`torch.FloatTensor` of shape `(batch_size, max_steps, num_channels)`)
            lengths (`torch.LongTensor` of shape `(batch_size,)`)

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_channels)`: the next-step forecast.
        """
        packed = nn.utils.rnn.pack_padded_sequence(values, lengths, batch_first=True, enforce_sorted=False)
        _, h_n = self.encoder(packed)
        return last_observed(values, lengths) + self.increment(h_n[-1])


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ResidualForecastHead(num_channels=3, hidden_size=5)
    lengths = torch.tensor([4, 2, 6])
    values = torch.randn(3, 6, 3) * (torch.arange(6).view(1, 6, 1) < lengths.view(3, 1, 1))
    with torch.no_grad():
        forecast = head(values, lengths)
        for b in range(3):
            n = lengths[b].item()
            _, h_n = head.encoder(values[b:b + 1, :n])
            inc = head.increment(h_n[-1])[0]
            for c in range(3):
                assert abs(forecast[b, c].item() - (values[b, n - 1, c].item() + inc[c].item())) < 1e-5
    print("ok")

from typing import List, Tuple

import torch
import torch.nn as nn


class DeepARInputBuilder(nn.Module):
    """
    Builds the lagged-target features fed to a DeepAR-style RNN.

    Parameters
    ----------
    context_length
        Number of time steps the RNN is unrolled over before the forecast.
    lags_seq
        Lags of the target to use as features. Lag ``l`` means the observation
        ``l`` steps before the time step being predicted (``1`` = the last one).
    """

    def __init__(self, context_length: int, lags_seq: List[int]) -> None:
        super().__init__()
        self.context_length = context_length
        self.lags_seq = torch.tensor(lags_seq)
        self.past_length = context_length + max(lags_seq)

    def lagged_values(
        self, past_target: torch.Tensor, future_target: torch.Tensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """
        Parameters
        ----------
        past_target
            Past target values, shape: ``(batch_size, past_length)``.
        future_target
            Future target values, shape: ``(batch_size, prediction_length)``.

        Returns
        -------
        Tuple[Tensor, Tensor]
            The RNN target inputs, shape ``(batch_size, steps)``, and the lagged
            values, shape ``(batch_size, steps, len(lags_seq))``, where
            ``steps = context_length + prediction_length - 1``. Step ``j`` of the
            RNN predicts the value that follows ``rnn_target[:, j]``.
        """
        context = past_target[..., -self.context_length :]
        rnn_target = torch.cat((context, future_target[..., :-1]), dim=-1)
        prior = past_target[..., : -self.context_length]
        full = torch.cat((prior, rnn_target), dim=-1)

        steps = rnn_target.shape[-1]
        positions = prior.shape[-1] + torch.arange(steps)
        lag_index = positions.unsqueeze(-1) - self.lags_seq.unsqueeze(0)
        flat_index = lag_index.reshape(1, -1).expand(full.shape[0], -1)
        lags = full.gather(-1, flat_index)
        return rnn_target, lags.reshape(full.shape[0], steps, len(self.lags_seq))


def make_batch(builder: DeepARInputBuilder, prediction_length: int, batch_size: int):
    total = builder.past_length + prediction_length
    series = torch.arange(total, dtype=torch.float32) + 100.0 * torch.arange(batch_size).unsqueeze(1)
    return series, series[:, : builder.past_length], series[:, builder.past_length :]


if __name__ == "__main__":
    config = {"context_length": 8, "lags_seq": [1, 2, 7], "prediction_length": 4}
    builder = DeepARInputBuilder(config["context_length"], config["lags_seq"])
    series, past_target, future_target = make_batch(builder, config["prediction_length"], batch_size=3)
    rnn_target, lags = builder.lagged_values(past_target, future_target)

    # step j predicts series[:, prior_len + j + 1]; lag l is the value l steps before it
    prior_len = builder.past_length - builder.context_length
    ref = torch.empty_like(lags)
    for b in range(lags.shape[0]):
        for j in range(lags.shape[1]):
            for k, lag in enumerate(config["lags_seq"]):
                ref[b, j, k] = series[b, prior_len + j + 1 - lag]
    print("lag-1 feature, series 0:", lags[0, :, 0].tolist())
    print("last observed value    :", rnn_target[0].tolist())
    print("reference lag-1        :", ref[0, :, 0].tolist())
    print("max abs diff vs reference:", (lags - ref).abs().max().item())

from dataclasses import dataclass
from typing import Optional, Tuple

import torch


@dataclass
class ChronosConfig:
    n_tokens: int
    n_special_tokens: int
    pad_token_id: int
    eos_token_id: int
    use_eos_token: bool
    context_length: int


class MeanScaleUniformBins:
    """Mean-scaling tokenizer with uniform bins in [low_limit, high_limit]."""

    def __init__(self, low_limit: float, high_limit: float, config: ChronosConfig) -> None:
        self.config = config
        self.centers = torch.linspace(low_limit, high_limit, config.n_tokens - config.n_special_tokens - 1)
        self.boundaries = torch.concat(
            (
                torch.tensor([-1e20], device=self.centers.device),
                (self.centers[1:] + self.centers[:-1]) / 2,
                torch.tensor([1e20], device=self.centers.device),
            )
        )

    def input_transform(self, context: torch.Tensor, scale: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Turn a batch of time series into token IDs.

        context: (batch_size, time_length), left-padded with nan.
        Returns token_ids (batch_size, time_length [+ 1 if use_eos_token]),
        attention_mask of the same shape, and scale (batch_size,).
        """
        batch_size, length = context.shape
        if length > self.config.context_length:
            context = context[..., -self.config.context_length :]

        attention_mask = ~torch.isnan(context)
        if scale is None:
            scale = torch.nansum(torch.abs(context) * attention_mask, dim=-1) / torch.nansum(attention_mask, dim=-1)
            scale[~(scale > 0)] = 1.0

        scaled_context = context / scale.unsqueeze(dim=-1)
        token_ids = (
            torch.bucketize(
                input=scaled_context,
                boundaries=self.boundaries,
                # buckets are open to the right
                right=True,
            )
            + self.config.n_special_tokens
        )
        token_ids[~attention_mask] = self.config.pad_token_id

        if self.config.use_eos_token:
            eos_tokens = torch.full((batch_size, 1), fill_value=self.config.eos_token_id)
            token_ids = torch.concat((token_ids, eos_tokens), dim=1)
            eos_mask = torch.full((batch_size, 1), fill_value=True)
            attention_mask = torch.concat((attention_mask, eos_mask), dim=1)

        return token_ids, attention_mask, scale

    def output_transform(self, samples: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        """Turn sampled token IDs (batch_size, num_samples, time_length) into real values of the same shape."""
        scale_unsqueezed = scale.unsqueeze(-1).unsqueeze(-1)
        indices = torch.clamp(
            samples - self.config.n_special_tokens - 1,
            min=0,
            max=len(self.centers) - 1,
        )
        return self.centers[indices] * scale_unsqueezed


if __name__ == "__main__":
    torch.manual_seed(0)
    config = ChronosConfig(n_tokens=4096, n_special_tokens=2, pad_token_id=0, eos_token_id=1, use_eos_token=True, context_length=64)
    tokenizer = MeanScaleUniformBins(-15.0, 15.0, config)

    t = torch.arange(48, dtype=torch.float32)
    context = 10 + 3 * torch.sin(t / 4)[None, :] * torch.tensor([[1.0], [2.0], [0.5]])
    context[2, :5] = float("nan")  # shorter series, left padding

    token_ids, attention_mask, scale = tokenizer.input_transform(context)
    # pretend the model sampled exactly the context tokens back (2 sample paths)
    samples = token_ids[:, None, :-1].repeat(1, 2, 1)
    decoded = tokenizer.output_transform(samples, scale)

    # reference: every observed value decodes to the center of the bin it fell into
    centers = tokenizer.centers.tolist()
    bounds = tokenizer.boundaries.tolist()
    for b in range(context.shape[0]):
        for t_ in range(context.shape[1]):
            v = context[b, t_].item()
            if v != v:  # nan padding
                continue
            x = v / scale[b].item()
            bucket = sum(1 for edge in bounds if edge <= x)  # bucketize(right=True)
            expected = centers[bucket - 1] * scale[b].item()
            for s in range(2):
                assert abs(decoded[b, s, t_].item() - expected) < 1e-4, (b, t_, decoded[b, s, t_].item(), expected)
            assert abs(expected - v) <= 0.5 * (centers[1] - centers[0]) * scale[b].item() + 1e-4
    print("ok")

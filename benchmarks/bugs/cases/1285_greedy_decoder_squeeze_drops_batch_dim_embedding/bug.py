from typing import Tuple

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class RNNDecoder(nn.Module):
    """One decoding step of an RNN decoder."""

    def __init__(self, hidden_size: int, vocab_size: int, num_layers: int = 1):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, num_layers, batch_first=True)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(
        self, input: Int[Tensor, "batch"], hidden: Float[Tensor, "layers batch hidden"]
    ) -> Tuple[Float[Tensor, "batch 1 vocab"], Float[Tensor, "layers batch hidden"]]:
        output = self.embedding(input.unsqueeze(1))
        output, hidden = self.rnn(output, hidden)
        return self.out(output), hidden


class SequenceRNNDecoder(nn.Module):
    """Greedy RNN-based decoder over multiple time steps."""

    def __init__(self, hidden_size: int, vocab_size: int, max_sequence_length: int, num_layers: int = 1):
        super().__init__()
        self.vocab_size, self.max_sequence_length, self.num_layers = vocab_size, max_sequence_length, num_layers
        self.rnn_decoder = RNNDecoder(hidden_size, vocab_size, num_layers)
        self.go_symbol = 1

    def forward(self, encoder_output: Float[Tensor, "batch hidden"]) -> Float[Tensor, "batch seq vocab"]:
        batch_size = encoder_output.size(0)
        decoder_hidden = encoder_output.unsqueeze(0).repeat(self.num_layers, 1, 1)
        decoder_input = torch.full((batch_size,), self.go_symbol, dtype=torch.long)
        logits = torch.zeros(batch_size, self.max_sequence_length, self.vocab_size)
        for di in range(self.max_sequence_length):
            decoder_output, decoder_hidden = self.rnn_decoder(decoder_input, decoder_hidden)
            logits[:, di, :] = decoder_output.squeeze(1)
            _, topi = decoder_output.topk(1)
            decoder_input = topi.squeeze().detach()  # detach from history as input
        return logits


def reference_decode(decoder: SequenceRNNDecoder, encoder_output: Tensor) -> Tensor:
    step = decoder.rnn_decoder
    rows = []
    for b in range(encoder_output.size(0)):
        hidden = encoder_output[b].view(1, 1, -1).repeat(decoder.num_layers, 1, 1)
        token, row = decoder.go_symbol, []
        for _ in range(decoder.max_sequence_length):
            out, hidden = step.rnn(step.embedding.weight[token].view(1, 1, -1), hidden)
            scores = step.out(out)[0, 0]
            row.append(scores)
            token = int(scores.argmax())
        rows.append(torch.stack(row))
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = SequenceRNNDecoder(hidden_size=16, vocab_size=12, max_sequence_length=5, num_layers=2)
    for batch_size in (4, 1):
        encoder_output = torch.randn(batch_size, 16)
        with torch.no_grad():
            logits = decoder(encoder_output)
            ref = reference_decode(decoder, encoder_output)
        print("batch", batch_size, "logits:", tuple(logits.shape), "match:", torch.allclose(logits, ref, atol=1e-5))

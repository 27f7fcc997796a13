import torch
import torch.nn as nn
import torch.nn.functional as F


class GreedySARDecoder(nn.Module):
    """Show-attend-read style recurrent decoder (attention omitted) with greedy decoding.

    Args:
        vocab_size (int): number of characters; one extra class is used for <eos>.
        embedding_units (int): width of the symbol embedding fed to the LSTM cell.
        rnn_units (int): hidden size of the LSTM cell and of the holistic feature.
        max_length (int): number of decoded characters (one more step is kept for <eos>).
    """

    def __init__(self, vocab_size, embedding_units, rnn_units, max_length):
        super().__init__()
        self.vocab_size = vocab_size
        self.max_length = max_length
        self.embed = nn.Linear(vocab_size + 1, embedding_units, bias=False)
        self.holistic_proj = nn.Linear(rnn_units, embedding_units)
        self.lstm_cell = nn.LSTMCell(embedding_units, rnn_units)
        self.output_dense = nn.Linear(rnn_units, vocab_size + 1)

    def forward(self, holistic):
        """
        Args:
            holistic (Tensor): pooled image feature of shape (N, rnn_units).

        Returns:
            Tensor: logits of shape (N, max_length + 1, vocab_size + 1).
        """
        n = holistic.size(0)
        h = torch.zeros(n, self.lstm_cell.hidden_size)
        c = torch.zeros_like(h)
        prev_symbol = self.holistic_proj(holistic)
        logits_list = []
        for t in range(self.max_length + 1):
            if t == 1:
                blank = torch.zeros(n, self.vocab_size + 1)
                prev_symbol = self.embed(blank)
            elif t > 1:
                index = logits_list[t - 1].argmax(-1)
                prev_symbol = prev_symbol.scatter_(1, index.unsqueeze(1), 1)
            h, c = self.lstm_cell(prev_symbol, (h, c))
            logits_list.append(self.output_dense(h))
        return torch.stack(logits_list, dim=1)


def reference_decode(decoder, holistic):
    """Greedy decoding one sample at a time with explicit one-hot symbols."""
    out = []
    with torch.no_grad():
        for i in range(holistic.size(0)):
            h = torch.zeros(1, decoder.lstm_cell.hidden_size)
            c = torch.zeros_like(h)
            symbol = decoder.holistic_proj(holistic[i : i + 1])
            ids = []
            for t in range(decoder.max_length + 1):
                if t == 1:
                    symbol = decoder.embed(torch.zeros(1, decoder.vocab_size + 1))
                elif t > 1:
                    one_hot = [0.0] * (decoder.vocab_size + 1)
                    one_hot[ids[-1]] = 1.0
                    symbol = decoder.embed(torch.tensor([one_hot]))
                h, c = decoder.lstm_cell(symbol, (h, c))
                ids.append(int(decoder.output_dense(h).argmax(-1)))
            out.append(ids)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = GreedySARDecoder(vocab_size=10, embedding_units=24, rnn_units=32, max_length=6)
    holistic = torch.randn(3, 32) * 3
    with torch.no_grad():
        ids = decoder(holistic).argmax(-1).tolist()
    ref = reference_decode(decoder, holistic)
    print("decoded  :", ids)
    print("reference:", ref)
    print("match:", ids == ref)

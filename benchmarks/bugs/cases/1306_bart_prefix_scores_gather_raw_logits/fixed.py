import torch
import torch.nn.functional as F
from torch import nn


class ToyDecoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, decoder_input_ids: torch.Tensor) -> torch.Tensor:
        # shape: (batch_size, num_decoding_steps, vocab_size)
        hidden, _ = self.rnn(self.embed(decoder_input_ids))
        return self.out(hidden)


def take_step(decoder: ToyDecoder, last_predictions: torch.Tensor) -> torch.Tensor:
    # last_predictions: (batch_size, num_steps_so_far) tokens decoded so far, starting with <s>
    # returns: (batch_size, vocab_size) log-probability of the prefix extended by each candidate token
    log_probabilities = None
    for i in range(last_predictions.shape[1]):
        # shape: (batch_size, vocab_size)
        decoder_log_probabilities = F.log_softmax(decoder(last_predictions[:, : i + 1])[:, -1], dim=-1)
        if log_probabilities is None:
            log_probabilities = decoder_log_probabilities
        else:
            # shape: (batch_size, 1)
            idx = last_predictions[:, i].view(-1, 1)
            log_probabilities = decoder_log_probabilities + log_probabilities.gather(dim=-1, index=idx)
    return log_probabilities


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = ToyDecoder(vocab_size=30, hidden=16)
    last_predictions = torch.tensor([[0, 7, 3, 12], [0, 5, 5, 21]])
    with torch.no_grad():
        scores = take_step(decoder, last_predictions)
    with torch.no_grad():
        for b in range(2):
            total = 0.0
            for i in range(1, 4):
                lp = F.log_softmax(decoder(last_predictions[b : b + 1, :i])[0, -1], dim=-1)
                total += lp[last_predictions[b, i]].item()
            last = F.log_softmax(decoder(last_predictions[b : b + 1])[0, -1], dim=-1)
            for v in range(30):
                assert abs(scores[b, v].item() - (total + last[v].item())) < 1e-4, (b, v)
    print("ok")

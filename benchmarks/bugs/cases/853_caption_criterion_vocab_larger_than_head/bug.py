import torch
import torch.nn as nn
import torch.nn.functional as F


class CaptionDecoder(nn.Module):
    def __init__(self, input_vocab, output_vocab, embed=64, hidden=128):
        super().__init__()
        self.embed = nn.Embedding(input_vocab + 1, embed)
        self.rnn = nn.LSTM(embed, hidden, batch_first=True)
        self.logit = nn.Linear(hidden, output_vocab + 1)

    def forward(self, words):
        h, _ = self.rnn(self.embed(words))
        return F.log_softmax(self.logit(h), dim=-1)


class LanguageModelCriterion(nn.Module):
    def forward(self, logprobs, target, mask):
        target = target[:, : logprobs.size(1)]
        mask = mask[:, : logprobs.size(1)]
        flat = logprobs.reshape(-1, logprobs.size(2))
        picked = flat.gather(1, target.reshape(-1, 1))
        return -(picked.squeeze(1) * mask.reshape(-1)).sum() / mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    words = [f"w{i}" for i in range(312)]
    vocab = {w: i + 1 for i, w in enumerate(words)}  # 0 is <eos>/<pad>
    decoder = CaptionDecoder(len(vocab), 288)
    captions = torch.randint(1, len(vocab) + 1, (6, 16))
    mask = torch.ones(6, 16)
    inputs = torch.cat([torch.zeros(6, 1, dtype=torch.long), captions[:, :-1]], 1)
    loss = LanguageModelCriterion()(decoder(inputs), captions, mask)
    print("loss", loss.item())

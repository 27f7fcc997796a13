import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class PTMDataset(Dataset):
    def __init__(self, token_stream, max_length):
        self.samples = [token_stream[i:i + max_length + 1] for i in range(0, len(token_stream) - max_length, max_length)]

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, index):
        sample = self.samples[index]
        input_ids = torch.tensor(sample[:-1], dtype=torch.long)
        labels = torch.tensor(sample[1:], dtype=torch.long)
        return input_ids, labels


class TinyLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.output = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, input_ids, labels=None):
        h, _ = self.rnn(self.tok_embeddings(input_ids))
        logits = self.output(h)
        if labels is None:
            return logits, None
        # the dataset already pairs position t with token t + 1
        log_probs = F.log_softmax(logits, dim=-1)
        token_logps = torch.gather(log_probs, -1, labels.unsqueeze(-1)).squeeze(-1)
        return logits, -token_logps.mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    stream = [(3 * i + 1) % 17 for i in range(200)]
    dataset = PTMDataset(stream, max_length=12)
    loader = DataLoader(dataset, batch_size=4, shuffle=False)
    model = TinyLM(vocab_size=17, dim=16)
    input_ids, labels = next(iter(loader))
    for b in range(4):
        for t in range(12):
            assert labels[b, t].item() == stream[b * 12 + t + 1] and input_ids[b, t].item() == stream[b * 12 + t]
    with torch.no_grad():
        logits, loss = model(input_ids, labels)
        log_probs = F.log_softmax(logits, dim=-1)
    total = 0.0
    for b in range(4):
        for t in range(12):
            total += -log_probs[b, t, stream[b * 12 + t + 1]].item()
    assert abs(loss.item() - total / 48) < 1e-5
    print("ok")

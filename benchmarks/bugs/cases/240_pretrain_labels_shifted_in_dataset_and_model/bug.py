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
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        log_probs = F.log_softmax(shift_logits, dim=-1)
        token_logps = torch.gather(log_probs, -1, shift_labels.unsqueeze(-1)).squeeze(-1)
        return logits, -token_logps.mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    stream = [(3 * i + 1) % 17 for i in range(200)]
    loader = DataLoader(PTMDataset(stream, max_length=12), batch_size=4, shuffle=False)
    model = TinyLM(vocab_size=17, dim=16)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for epoch in range(30):
        for input_ids, labels in loader:
            _, loss = model(input_ids, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        input_ids, labels = next(iter(loader))
        logits, loss = model(input_ids, labels)
        hits = (logits.argmax(-1) == labels).float().mean().item()
    print("training loss:", round(loss.item(), 4))
    print("greedy next-token accuracy:", round(hits, 3))
    print("prediction after", input_ids[0, :4].tolist(), "->", logits[0, 3].argmax().item(),
          "(true next token", labels[0, 3].item(), ")")

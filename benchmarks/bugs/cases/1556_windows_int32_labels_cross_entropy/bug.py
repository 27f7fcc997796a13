import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_split(n_examples, seq_len, vocab_size, num_labels, seed):
    rng = np.random.default_rng(seed)
    input_ids = rng.integers(1, vocab_size, size=(n_examples, seq_len))
    attention_mask = np.ones((n_examples, seq_len), dtype=np.int64)
    # labels as read from the csv; numpy's default integer (C long) is 32-bit on Windows
    labels = np.array(rng.integers(0, num_labels, size=n_examples), dtype=np.int32)
    return input_ids, attention_mask, labels


class SentenceClassifier(nn.Module):
    def __init__(self, vocab_size, hidden, num_labels):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(hidden, nhead=2, dim_feedforward=32, batch_first=True), num_layers=1,
            enable_nested_tensor=False,
        )
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, attention_mask):
        h = self.encoder(self.embeddings(input_ids), src_key_padding_mask=attention_mask == 0)
        return self.classifier(h[:, 0])


def train_epoch(model, loader, optimizer, loss_fn):
    model.train()
    for input_ids, attention_mask, labels in loader:
        logits = model(input_ids, attention_mask)
        loss = loss_fn(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    input_ids, attention_mask, labels = load_split(32, 12, 100, 3, seed=0)
    dataset = TensorDataset(torch.tensor(input_ids), torch.tensor(attention_mask), torch.tensor(labels))
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    model = SentenceClassifier(vocab_size=100, hidden=16, num_labels=3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    print("last loss:", train_epoch(model, loader, optimizer, nn.CrossEntropyLoss()))

import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingPredictor(nn.Module):
    """Predicts the KG embedding of a question's head entity with an attention-pooled BiLSTM."""

    def __init__(self, words_num, words_dim, hidden_size, embed_dim):
        super().__init__()
        self.embed = nn.Embedding(words_num, words_dim)
        self.lstm = nn.LSTM(words_dim, hidden_size, bidirectional=True)
        self.attn = nn.Sequential(nn.Linear(words_dim + 2 * hidden_size, hidden_size), nn.Tanh(),
                                  nn.Linear(hidden_size, 1))
        self.hidden2tag = nn.Linear(2 * hidden_size, embed_dim)

    def forward(self, question):
        # question: (seq_len, batch) word ids
        seq_len, batch = question.shape
        x = self.embed(question)  # (seq_len, batch, words_dim)
        outputs, _ = self.lstm(x)  # (seq_len, batch, 2 * hidden)
        x = x.view(-1, x.size(2))  # (seq_len * batch, words_dim)
        outputs = outputs.view(-1, outputs.size(2))  # (seq_len * batch, 2 * hidden)
        scores = self.attn(torch.cat((x, outputs), 1)).view(seq_len, batch)  # (seq_len, batch)
        attn_weights = F.softmax(scores, dim=0).unsqueeze(-1)  # (seq_len, batch, 1), normalised over time
        pooled = (attn_weights * outputs.view(seq_len, batch, -1)).sum(0)  # (batch, 2 * hidden)
        return self.hidden2tag(pooled), attn_weights.squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = EmbeddingPredictor(words_num=50, words_dim=8, hidden_size=6, embed_dim=4)
    question = torch.randint(0, 50, (5, 3))
    with torch.no_grad():
        pred, weights = model(question)
        x = model.embed(question)
        outputs, _ = model.lstm(x)
        for b in range(3):
            raw = [model.attn(torch.cat((x[t, b], outputs[t, b]))).item() for t in range(5)]
            total = sum(torch.tensor(r).exp().item() for r in raw)
            expected = [torch.tensor(r).exp().item() / total for r in raw]
            for t in range(5):
                assert abs(weights[t, b].item() - expected[t]) < 1e-5
            pooled = [sum(expected[t] * outputs[t, b, d].item() for t in range(5)) for d in range(12)]
            ref = model.hidden2tag(torch.tensor(pooled))
            assert torch.allclose(pred[b], ref, atol=1e-5)
    print("ok")

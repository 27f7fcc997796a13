import torch
import torch.nn as nn


class ToneEncoder(nn.Module):
    """Small BERT-style encoder used by the tone classifier.

    Args:
        vocab_size: number of word pieces.
        max_positions: size of the learned position table.
        hidden: model width.
    """

    def __init__(self, vocab_size=3000, max_positions=128, hidden=32, n_labels=3):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.position_embeddings = nn.Embedding(max_positions, hidden)
        self.classifier = nn.Linear(hidden, n_labels)

    def forward(self, input_ids):
        """
        Args:
            input_ids: LongTensor of shape (batch, seq_len).
        Returns:
            logits of shape (batch, n_labels).
        """
        seq_len = input_ids.size(1)
        position_ids = torch.arange(seq_len).unsqueeze(0).expand_as(input_ids)
        h = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        return self.classifier(h.mean(dim=1))


def encode(text, vocab_size=3000):
    # toy word-piece encoder: [CLS] + pieces + [SEP], no length limit
    pieces = [(sum(map(ord, w)) % (vocab_size - 2)) + 2 for w in text.split()]
    return torch.tensor([[0] + pieces + [1]])


def predict_proba(model, sentence):
    input_ids = encode(sentence)
    with torch.no_grad():
        return model(input_ids).softmax(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToneEncoder()
    short = "det er en god dag"
    print("short:", predict_proba(model, short).tolist())
    review = " ".join(["meget"] * 200)
    print("long:", predict_proba(model, review).tolist())

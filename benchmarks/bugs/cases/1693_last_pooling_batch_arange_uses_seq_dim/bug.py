import torch
import torch.nn as nn


class LastPooling(nn.Module):
    """Get the last hidden state of a sequence."""

    def forward(self, data: torch.Tensor, padding_mask: torch.Tensor = None) -> torch.Tensor:
        """Performs a forward pass.

        Parameters
        ----------
        data : torch.Tensor
            The input data, as a tensor of shape [B x S x H]
        padding_mask: torch.Tensor
            The input mask, as a tensor of shape [B X S]

        Returns
        ----------
        torch.Tensor
            The output data, as a tensor of shape [B x H]

        """
        # Compute lengths
        if padding_mask is None:
            lengths = torch.tensor([data.size(0)] * data.size(1)).long()
        else:
            lengths = padding_mask.long().sum(dim=1)

        return data[torch.arange(data.size(1)).long(), lengths - 1, :]


class RNNTextClassifier(nn.Module):
    """Embedder -> GRU encoder -> last pooling -> linear output layer."""

    def __init__(self, vocab_size: int, embedding_dim: int, hidden_size: int, num_labels: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.encoder = nn.GRU(embedding_dim, hidden_size, batch_first=True)
        self.pooling = LastPooling()
        self.output_layer = nn.Linear(hidden_size, num_labels)

    def encode(self, tokens: torch.Tensor) -> torch.Tensor:
        """Encode a batch of token ids.

        Parameters
        ----------
        tokens : torch.Tensor
            Padded token ids, as a tensor of shape [B x S]

        Returns
        ----------
        torch.Tensor
            The sentence encodings, as a tensor of shape [B x H]

        """
        padding_mask = tokens != 0
        hidden, _ = self.encoder(self.embedding(tokens))
        return self.pooling(hidden, padding_mask)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.output_layer(self.encode(tokens))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RNNTextClassifier(vocab_size=50, embedding_dim=16, hidden_size=32, num_labels=3)
    sentences = [[5, 9, 14, 2, 7, 33, 8], [4, 11, 6], [21, 3, 3, 17, 9], [12, 40]]
    tokens = torch.zeros(len(sentences), max(map(len, sentences)), dtype=torch.long)
    for i, sent in enumerate(sentences):
        tokens[i, : len(sent)] = torch.tensor(sent)
    with torch.no_grad():
        encoded = model.encode(tokens)
        hidden, _ = model.encoder(model.embedding(tokens))
    print("encodings:", tuple(encoded.shape))
    reference = torch.stack([hidden[i, len(sent) - 1] for i, sent in enumerate(sentences)])
    assert torch.allclose(encoded, reference)
    print("logits:", tuple(model(tokens).shape))
    print("ok")

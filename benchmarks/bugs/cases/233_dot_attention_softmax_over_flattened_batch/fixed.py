import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class Attention(nn.Module):
    """Luong-style attention: each query position attends over the context positions."""

    def __init__(self, dimensions: int, attention_type: str = "general"):
        super().__init__()
        self.attention_type = attention_type
        if attention_type == "general":
            self.linear_in = nn.Linear(dimensions, dimensions, bias=False)
        self.linear_out = nn.Linear(dimensions * 2, dimensions, bias=False)
        self.softmax = nn.Softmax(dim=-1)
        self.tanh = nn.Tanh()

    def forward(
        self, query: Float[Tensor, "batch output_len dim"], context: Float[Tensor, "batch query_len dim"]
    ) -> tuple[Float[Tensor, "batch output_len dim"], Float[Tensor, "batch output_len query_len"]]:
        batch_size, output_len, dimensions = query.size()
        query_len = context.size(1)
        if self.attention_type == "general":
            query = self.linear_in(query.reshape(batch_size * output_len, dimensions))
            query = query.reshape(batch_size, output_len, dimensions)
        attention_scores = torch.bmm(query, context.transpose(1, 2).contiguous())
        attention_scores = attention_scores.view(batch_size * output_len, query_len)
        attention_weights = self.softmax(attention_scores)
        attention_weights = attention_weights.view(batch_size, output_len, query_len)
        mix = torch.bmm(attention_weights, context)
        combined = torch.cat((mix, query), dim=2).view(batch_size * output_len, 2 * dimensions)
        output = self.tanh(self.linear_out(combined)).view(batch_size, output_len, dimensions)
        return output, attention_weights


if __name__ == "__main__":
    torch.manual_seed(0)
    attention = Attention(dimensions=6)
    query = torch.randn(2, 3, 6)
    context = torch.randn(2, 4, 6)
    with torch.no_grad():
        output, weights = attention(query, context)
        projected = attention.linear_in(query)
        for b in range(2):
            for i in range(3):
                scores = [sum(projected[b, i, d].item() * context[b, j, d].item() for d in range(6)) for j in range(4)]
                top = max(scores)
                exps = [torch.tensor(s - top).exp().item() for s in scores]
                for j in range(4):
                    assert abs(weights[b, i, j].item() - exps[j] / sum(exps)) < 1e-5
    print("ok")

"""Inference: provider-neutral types, structured output, reasoning, codecs, transport, cost.

Imports nothing else of golem.
"""

from golem.inference.errors import (
    AuthError,
    ConnectionFailed,
    FormatMismatch,
    GolemError,
    IncompleteStream,
    InferenceError,
    InvalidRequest,
    InvalidResponse,
    InvalidSchema,
    MissingResponseFormat,
    NoStructuredOutput,
    Overloaded,
    ProviderError,
    RateLimited,
    Refusal,
    ResponseFormatRejected,
    ServerError,
    StructuredOutputInvalid,
    Timeout,
    UnparseableOutput,
    is_transient,
)
from golem.inference.extract import Extracted, extract_json
from golem.inference.fallback import FallbackProvider
from golem.inference.modes import (
    Capabilities,
    Resolution,
    StructuredOutputConfig,
    resolve_structured_output,
)
from golem.inference.parse import Parsed, parse_response
from golem.inference.reasoning import (
    ReasoningChain,
    ReasoningConfig,
    ReasoningDepth,
    Visibility,
)
from golem.inference.run import CountsTokens, Provider, complete, respond_tool, run_structured
from golem.inference.schema import ResponseSchema, SchemaIssue, strict_preflight
from golem.inference.structured import (
    StructuredOutput,
    WorkedExample,
    get_schema,
    registered_schemas,
)
from golem.inference.synthetic import SyntheticConfig, SyntheticProvider
from golem.inference.transport import HTTPProvider, TransportConfig
from golem.inference.types import (
    NO_USAGE,
    FinishReason,
    Message,
    Mode,
    Request,
    Response,
    Role,
    ServerToolCall,
    Tool,
    ToolCall,
    Usage,
)
from golem.inference.wire import StreamDecoder, decode

__all__ = [
    "NO_USAGE",
    "AuthError",
    "Capabilities",
    "ConnectionFailed",
    "CountsTokens",
    "Extracted",
    "FallbackProvider",
    "FinishReason",
    "FormatMismatch",
    "GolemError",
    "HTTPProvider",
    "IncompleteStream",
    "InferenceError",
    "InvalidRequest",
    "InvalidResponse",
    "InvalidSchema",
    "Message",
    "MissingResponseFormat",
    "Mode",
    "NoStructuredOutput",
    "Overloaded",
    "Parsed",
    "Provider",
    "ProviderError",
    "RateLimited",
    "ReasoningChain",
    "ReasoningConfig",
    "ReasoningDepth",
    "Refusal",
    "Request",
    "Resolution",
    "Response",
    "ResponseFormatRejected",
    "ResponseSchema",
    "Role",
    "SchemaIssue",
    "ServerError",
    "ServerToolCall",
    "StreamDecoder",
    "StructuredOutput",
    "StructuredOutputConfig",
    "StructuredOutputInvalid",
    "SyntheticConfig",
    "SyntheticProvider",
    "Timeout",
    "Tool",
    "ToolCall",
    "TransportConfig",
    "UnparseableOutput",
    "Usage",
    "Visibility",
    "WorkedExample",
    "complete",
    "decode",
    "extract_json",
    "get_schema",
    "is_transient",
    "parse_response",
    "registered_schemas",
    "resolve_structured_output",
    "respond_tool",
    "run_structured",
    "strict_preflight",
]

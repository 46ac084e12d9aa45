package indexer.tika;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Executors;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.microsoft.OfficeParserConfig;
import org.apache.tika.sax.BodyContentHandler;

/**
 * Apache Tika's standard parsers behind a loopback HTTP endpoint: bytes in, JSON out.
 *
 * <p>Usage: {@code TikaService PORT THREADS} (PORT 0 picks a free port). Binds 127.0.0.1 only,
 * prints {@code tika-service listening on 127.0.0.1:PORT} once ready, and exits when its
 * standard input closes (the crawl that started it is gone).
 *
 * <ul>
 *   <li>{@code GET /health}: 200 {@code ok}.
 *   <li>{@code POST /parse} with the document's bytes; header {@code X-Max-Chars} bounds the text
 *       kept. 200 {@code {"text": ..., "truncated": bool, "metadata": {name: [values]}}}; 422
 *       {@code {"error": "encrypted"|"parse-error", "message": ...}} for a document Tika refuses.
 * </ul>
 */
public final class TikaService {
  private static final AutoDetectParser PARSER = new AutoDetectParser();

  private TikaService() {}

  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    HttpServer server = HttpServer.create(new InetSocketAddress(loopback, port), 16);
    server.createContext("/health", ex -> reply(ex, 200, "text/plain", "ok"));
    server.createContext("/parse", TikaService::parse);
    server.setExecutor(Executors.newFixedThreadPool(threads));
    server.start();
    System.out.println("tika-service listening on 127.0.0.1:" + server.getAddress().getPort());
    System.out.flush();
    Thread watcher = new Thread(TikaService::exitWhenStdinCloses, "stdin-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static void exitWhenStdinCloses() {
    try {
      while (System.in.read() >= 0) {
        // the parent writes nothing; EOF means it is gone
      }
    } catch (IOException e) {
      // same as EOF
    }
    Runtime.getRuntime().halt(0);
  }

  private static void parse(HttpExchange ex) throws IOException {
    if (!"POST".equals(ex.getRequestMethod())) {
      reply(ex, 405, "text/plain", "POST the document's bytes");
      return;
    }
    String limitHeader = ex.getRequestHeaders().getFirst("X-Max-Chars");
    int limit = limitHeader == null ? -1 : Integer.parseInt(limitHeader.trim());
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readAllBytes();
    }
    TestHold.maybeHold(body);
    BodyContentHandler handler = new BodyContentHandler(limit);
    Metadata metadata = new Metadata();
    boolean truncated = false;
    try (TikaInputStream stream = TikaInputStream.get(body)) {
      PARSER.parse(stream, handler, metadata, context());
    } catch (EncryptedDocumentException e) {
      reply(ex, 422, "application/json", error("encrypted", e));
      return;
    } catch (Exception e) {
      if (WriteLimitReachedException.isWriteLimitReached(e)) {
        truncated = true;
      } else {
        reply(ex, 422, "application/json", error("parse-error", e));
        return;
      }
    }
    StringBuilder json = new StringBuilder(body.length / 4 + 256);
    json.append("{\"text\":");
    quote(json, handler.toString());
    json.append(",\"truncated\":").append(truncated).append(",\"metadata\":{");
    String[] names = metadata.names();
    Arrays.sort(names);
    for (int i = 0; i < names.length; i++) {
      if (i > 0) json.append(',');
      quote(json, names[i]);
      json.append(":[");
      String[] values = metadata.getValues(names[i]);
      for (int j = 0; j < values.length; j++) {
        if (j > 0) json.append(',');
        quote(json, values[j]);
      }
      json.append(']');
    }
    json.append("}}");
    reply(ex, 200, "application/json", json.toString());
  }

  /** Office headers and footers are page furniture (Excel's are field codes): left out. */
  private static ParseContext context() {
    OfficeParserConfig office = new OfficeParserConfig();
    office.setIncludeHeadersAndFooters(false);
    ParseContext context = new ParseContext();
    context.set(OfficeParserConfig.class, office);
    return context;
  }

  private static String error(String kind, Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    StringBuilder json = new StringBuilder("{\"error\":");
    quote(json, kind);
    json.append(",\"message\":");
    quote(json, e.getClass().getSimpleName() + ": " + String.valueOf(root.getMessage()));
    return json.append('}').toString();
  }

  /** Appends {@code s} as a JSON string (RFC 8259 §7). */
  private static void quote(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || Character.isSurrogate(c)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void reply(HttpExchange ex, int status, String type, String text)
      throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}

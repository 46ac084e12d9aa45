package indexer.tika;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only hook that holds a named document in flight, so a test can kill the JVM while that
 * document is certainly being parsed. Off unless the JVM is started with {@code
 * -Dindexer.tika.holdDir=DIR} (the tests pass it through {@code JAVA_TOOL_OPTIONS}); the crawl
 * never sets it.
 *
 * <p>When on, a document whose bytes contain {@link #MARKER} while the file {@code DIR/armed}
 * exists is held: the service creates {@code DIR/held-PID-N} (its own pid, a sequence number) and
 * sleeps {@link #HOLD_MILLIS} before parsing it, time for the test to see the file and kill the
 * JVM by that pid.
 */
final class TestHold {
  /** The bytes that name a document to hold. */
  static final byte[] MARKER = "INDEXER-TIKA-HOLD".getBytes(StandardCharsets.US_ASCII);

  /** How long a held document waits (ms) before it is parsed anyway: a failed test ends. */
  static final long HOLD_MILLIS = 120_000;

  private static final String DIR = System.getProperty("indexer.tika.holdDir");
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private TestHold() {}

  /** Holds the document {@code body} when the hook is on and armed and the body is marked. */
  static void maybeHold(byte[] body) throws IOException {
    if (DIR == null || !contains(body, MARKER)) return;
    Path dir = Path.of(DIR);
    if (!Files.exists(dir.resolve("armed"))) return;
    long pid = ProcessHandle.current().pid();
    Files.createFile(dir.resolve("held-" + pid + "-" + SEQUENCE.incrementAndGet()));
    try {
      Thread.sleep(HOLD_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean contains(byte[] body, byte[] marker) {
    outer:
    for (int i = 0; i + marker.length <= body.length; i++) {
      for (int j = 0; j < marker.length; j++) {
        if (body[i + j] != marker[j]) continue outer;
      }
      return true;
    }
    return false;
  }
}

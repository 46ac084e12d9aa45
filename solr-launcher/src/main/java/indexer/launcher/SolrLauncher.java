package indexer.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * Starts a real Solr (JettySolrRunner from solr-test-framework) on 127.0.0.1 with our configset,
 * in its own JVM: standalone, or one SolrCloud node.
 *
 * <p>Usage: {@code SolrLauncher --port 8983 --solr-home DIR --configset DIR [--configset-name
 * pages] [--core pages[,other]] [--log-level WARN] [--security-json FILE] [--cloud true
 * [--zk-port P | --zk-host HOST:PORT]]}.
 *
 * <p>Cloud mode (Solr Ref Guide, "SolrCloud Configuration and Parameters"): with {@code
 * --zk-host} the node joins that ZooKeeper; without it the node runs Solr's embedded ZooKeeper
 * (system property {@code zkRun}, still the switch in 9.10.1; {@code SolrZkServer} reads
 * {@code <home>/zoo.cfg}, which we write with {@code clientPort} = {@code --zk-port}, default
 * port + 1000). No core is created in cloud mode: collections come from the Collections API.
 * {@code --security-json} is copied to {@code <home>/security.json} (standalone) or written to
 * ZooKeeper's {@code /security.json} once the node is up (cloud; Solr watches that node).
 *
 * <p>Prints {@code READY http://127.0.0.1:PORT/solr} on stdout once every core loaded. Exit codes:
 * 2 bad usage, 3 a core failed to load (message on stderr), 4 Jetty could not start (port busy),
 * 5 security.json could not be written to ZooKeeper. SIGTERM stops Jetty cleanly through a
 * shutdown hook.
 */
public final class SolrLauncher {
  private static final String CONTEXT = "/solr";
  private static final String SOLR_XML_MARK = "written by indexer's SolrLauncher";
  /** Standalone unless zkHost or zkRun is set; the solrcloud section is read in cloud mode. */
  private static final String SOLR_XML = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<!-- solr.xml " + SOLR_XML_MARK + " (rewritten on every start). -->\n"
      + "<solr>\n"
      + "  <solrcloud>\n"
      + "    <str name=\"host\">127.0.0.1</str>\n"
      + "    <int name=\"hostPort\">${hostPort:8983}</int>\n"
      + "    <str name=\"hostContext\">${hostContext:solr}</str>\n"
      + "    <int name=\"zkClientTimeout\">${zkClientTimeout:30000}</int>\n"
      + "    <bool name=\"genericCoreNodeNames\">true</bool>\n"
      + "  </solrcloud>\n"
      + "</solr>\n";
  /** Solr's default zoo.cfg (server/solr/zoo.cfg) with our client port; no admin server. */
  private static final String ZOO_CFG = "tickTime=2000\ninitLimit=10\nsyncLimit=5\n"
      + "admin.enableServer=false\n4lw.commands.whitelist=mntr,conf,ruok\nclientPort=";

  private SolrLauncher() {}

  /** Parsed command-line options. */
  record Options(int port, Path solrHome, Path configset, String configsetName,
      List<String> cores, String logLevel, boolean cloud, String zkHost, int zkPort,
      Path securityJson) {}

  public static void main(String[] args) throws Exception {
    Options opts;
    try {
      opts = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("SolrLauncher: " + e.getMessage());
      System.exit(2);
      return;
    }
    configureLogging(opts.logLevel());
    prepareHome(opts);
    run(opts);
  }

  static Options parse(String[] args) {
    int port = 8983;
    Path home = null;
    Path configset = null;
    String configsetName = "pages";
    List<String> cores = new ArrayList<>();
    String level = "WARN";
    boolean cloud = false;
    String zkHost = null;
    int zkPort = 0;
    Path security = null;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      if (value == null) {
        throw new IllegalArgumentException("missing value after " + args[i]);
      }
      switch (args[i++]) {
        case "--port" -> port = Integer.parseInt(value);
        case "--solr-home" -> home = Path.of(value).toAbsolutePath().normalize();
        case "--configset" -> configset = Path.of(value).toAbsolutePath().normalize();
        case "--configset-name" -> configsetName = value;
        case "--core" -> cores.addAll(List.of(value.split(",")));
        case "--log-level" -> level = value;
        case "--cloud" -> cloud = Boolean.parseBoolean(value);
        case "--zk-host" -> zkHost = value;
        case "--zk-port" -> zkPort = Integer.parseInt(value);
        case "--security-json" -> security = Path.of(value).toAbsolutePath().normalize();
        default -> throw new IllegalArgumentException("unknown option " + args[i - 1]);
      }
    }
    if (home == null || configset == null) {
      throw new IllegalArgumentException("--solr-home and --configset are required");
    }
    if (!Files.isRegularFile(configset.resolve("solrconfig.xml"))) {
      throw new IllegalArgumentException("no solrconfig.xml in configset " + configset);
    }
    if (security != null && !Files.isRegularFile(security)) {
      throw new IllegalArgumentException("no such file " + security);
    }
    if (cloud) {
      cores.clear();
    } else if (cores.isEmpty()) {
      cores.add("pages");
    }
    return new Options(port, home, configset, configsetName, cores, level, cloud, zkHost,
        zkPort == 0 ? port + 1000 : zkPort, security);
  }

  /** Points Log4j 2 at our shipped config unless the caller chose one; sets its level. */
  static void configureLogging(String level) {
    System.setProperty("indexer.log.level", level);
    // Jersey logs through java.util.logging: keep it as quiet as Log4j unless asked.
    java.util.logging.Logger.getLogger("").setLevel(switch (level.toUpperCase()) {
      case "DEBUG", "TRACE", "ALL" -> java.util.logging.Level.FINE;
      case "INFO" -> java.util.logging.Level.INFO;
      default -> java.util.logging.Level.SEVERE;
    });
    if (System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", "indexer-launcher-log4j2.xml");
    }
  }

  /**
   * Writes solr.xml if missing or ours, replaces {@code <home>/configsets/<name>/conf} with a
   * fresh copy of the configset (so edits take effect on restart), creates missing cores; in
   * cloud mode writes zoo.cfg and sets the ZooKeeper system properties.
   */
  static void prepareHome(Options opts) throws IOException {
    Path home = opts.solrHome();
    Files.createDirectories(home);
    Path solrXml = home.resolve("solr.xml");
    if (!Files.exists(solrXml) || Files.readString(solrXml).contains(SOLR_XML_MARK)) {
      Files.writeString(solrXml, SOLR_XML, StandardCharsets.UTF_8);
    }
    System.setProperty("hostPort", Integer.toString(opts.port()));
    if (opts.cloud()) {
      prepareCloud(opts);
    } else if (opts.securityJson() != null) {
      Files.copy(opts.securityJson(), home.resolve("security.json"),
          StandardCopyOption.REPLACE_EXISTING);
    }
    Path target = home.resolve("configsets").resolve(opts.configsetName());
    deleteTree(target);
    copyTree(opts.configset(), target.resolve("conf"));
    for (String core : opts.cores()) {
      Path props = home.resolve(core).resolve("core.properties");
      if (!Files.exists(props)) {
        Files.createDirectories(props.getParent());
        Files.writeString(props, "name=" + core + "\nconfigSet=" + opts.configsetName() + "\n",
            StandardCharsets.UTF_8);
      }
    }
  }

  /** Joins {@code --zk-host}, or runs the embedded ZooKeeper on {@code --zk-port}. */
  static void prepareCloud(Options opts) throws IOException {
    if (opts.zkHost() != null) {
      System.setProperty("zkHost", opts.zkHost());
      return;
    }
    Files.writeString(opts.solrHome().resolve("zoo.cfg"), ZOO_CFG + opts.zkPort() + "\n",
        StandardCharsets.UTF_8);
    System.setProperty("zkRun", "");
    System.setProperty("solr.zk.embedded.host", "127.0.0.1");
  }

  static void run(Options opts) throws Exception {
    var config = org.apache.solr.embedded.JettyConfig.builder()
        .setPort(opts.port())
        .setContext(CONTEXT)
        .stopAtShutdown(false)
        .withPortRetryTime(1)
        .waitForLoadingCoresToFinish(600_000L)
        .build();
    var runner = new org.apache.solr.embedded.JettySolrRunner(
        opts.solrHome().toString(), config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(runner, stopped),
        "solr-launcher-shutdown"));
    try {
      runner.start();
    } catch (Exception e) {
      System.err.println("SolrLauncher: cannot start Jetty on port " + opts.port() + ": " + e);
      System.exit(4);
    }
    String failures = coreFailures(runner, opts.cores());
    if (!failures.isEmpty()) {
      System.err.println("SolrLauncher: core failed to load: " + failures);
      System.exit(3);
    }
    if (opts.cloud() && opts.securityJson() != null) {
      try {
        writeSecurityToZk(runner, Files.readAllBytes(opts.securityJson()));
      } catch (Exception e) {
        System.err.println("SolrLauncher: cannot write /security.json to ZooKeeper: " + e);
        System.exit(5);
      }
    }
    System.out.println("READY http://127.0.0.1:" + runner.getLocalPort() + CONTEXT);
    System.out.flush();
    stopped.await();
  }

  /** Writes {@code /security.json} in ZooKeeper; every node reloads its security plugins. */
  static void writeSecurityToZk(org.apache.solr.embedded.JettySolrRunner runner, byte[] data)
      throws Exception {
    var zk = runner.getCoreContainer().getZkController().getZkClient();
    if (zk.exists("/security.json", true)) {
      zk.setData("/security.json", data, true);
    } else {
      zk.makePath("/security.json", data, true);
    }
  }

  /** Describes every core that failed to load, or that is missing; empty when all loaded. */
  static String coreFailures(org.apache.solr.embedded.JettySolrRunner runner, List<String> cores) {
    var container = runner.getCoreContainer();
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, ?> e : container.getCoreInitFailures().entrySet()) {
      var failure = (org.apache.solr.core.CoreContainer.CoreLoadFailure) e.getValue();
      out.append(e.getKey()).append(": ").append(rootMessage(failure.exception)).append('\n');
    }
    for (String core : cores) {
      if (!container.isLoaded(core) && !container.getCoreInitFailures().containsKey(core)) {
        out.append(core).append(": not loaded\n");
      }
    }
    return out.toString();
  }

  static String rootMessage(Throwable t) {
    StringBuilder out = new StringBuilder(String.valueOf(t));
    for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      out.append(" <- ").append(c);
    }
    return out.toString();
  }

  static void stopQuietly(org.apache.solr.embedded.JettySolrRunner runner, CountDownLatch done) {
    try {
      if (runner.isRunning()) {
        runner.stop();
      }
    } catch (Exception e) {
      System.err.println("SolrLauncher: error while stopping: " + e);
    } finally {
      done.countDown();
    }
  }

  static void copyTree(Path source, Path target) throws IOException {
    try (Stream<Path> paths = Files.walk(source)) {
      paths.forEach(p -> {
        Path dest = target.resolve(source.relativize(p).toString());
        try {
          if (Files.isDirectory(p)) {
            Files.createDirectories(dest);
          } else {
            Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
